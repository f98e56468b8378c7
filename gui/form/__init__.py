"""The architecture form, generated from the pydantic schema."""

from paramtally.gui.form.form import ArchitectureForm

__all__ = ["ArchitectureForm"]
