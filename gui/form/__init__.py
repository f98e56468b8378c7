"""The architecture form, generated from the pydantic schema."""

from gui.form.form import ArchitectureForm

__all__ = ["ArchitectureForm"]
