"""The runnable examples in hardware/'s docstrings stay true (the API docs are executable)."""

from __future__ import annotations

import doctest
import importlib

import pytest
from gpiozero import Device

MODULES = ["events", "header", "pinmap", "debounce", "source", "keyboard", "simbus", "lights", "panels", "wiring", "bom", "drawings"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    saved = Device.pin_factory
    try:
        module = importlib.import_module(f"hardware.{name}")
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.attempted > 0, f"hardware.{name} has no examples"
        assert result.failed == 0
    finally:
        Device.pin_factory = saved
