"""The preset browser: a searchable list, the file commands on presets, and their File-menu entries."""

from gui.presets.actions import PresetActions
from gui.presets.browser import PresetsBrowser, add_preset_actions
from gui.presets.preset_list import ID_ROLE, ORIGIN_ROLE, PresetList

__all__ = ["ID_ROLE", "ORIGIN_ROLE", "PresetActions", "PresetList", "PresetsBrowser", "add_preset_actions"]
