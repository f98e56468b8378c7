"""The preset browser: a searchable list, the file commands on presets, and their File-menu entries."""

from paramtally.gui.presets.actions import PresetActions
from paramtally.gui.presets.browser import PresetsBrowser, add_preset_actions
from paramtally.gui.presets.preset_list import ID_ROLE, ORIGIN_ROLE, PresetList

__all__ = ["ID_ROLE", "ORIGIN_ROLE", "PresetActions", "PresetList", "PresetsBrowser", "add_preset_actions"]
