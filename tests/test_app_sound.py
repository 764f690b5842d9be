"""Sound: the generated clips, the mixer set-up, the device chosen by name, cue -> clip (SDL dummy audio)."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import wave
from pathlib import Path

import pygame
import pytest

from game.table.sound import BUFFER, EFFECTS, AudioDeviceError, Sound, choose_device

ASSETS = Path(__file__).resolve().parents[1] / "game" / "table" / "assets"


def test_every_rules_sound_cue_has_a_committed_clip_that_is_real_audio() -> None:
    for cue in ("countdown", "hit", "miss", "catch", "tie", "bruise", "badge", "win", "brawl", "war", "duel"):
        with wave.open(str(ASSETS / EFFECTS[cue])) as w:
            assert w.getframerate() == 44100 and w.getsampwidth() == 2 and 0.1 < w.getnframes() / 44100 < 3


def test_the_committed_clips_are_exactly_what_the_generation_script_makes(tmp_path: Path) -> None:
    """How the assets were made is in the repo: rerunning the script gives the same bytes."""
    script = (ASSETS / "make_sounds.py").read_text(encoding="utf-8")
    copy = tmp_path / "make_sounds.py"
    copy.write_text(script, encoding="utf-8")
    subprocess.run([sys.executable, str(copy)], check=True, capture_output=True)
    for clip in ("hit.wav", "countdown.wav", "win.wav"):
        assert hashlib.sha256((tmp_path / clip).read_bytes()).digest() == hashlib.sha256((ASSETS / clip).read_bytes()).digest()


def test_audio_device_is_chosen_by_name_and_a_missing_one_lists_what_is_there() -> None:
    names = ["Built-in Audio Analog Stereo", "USB Audio Device"]
    assert choose_device("usb", names) == "USB Audio Device"
    assert choose_device(None, names) is None
    with pytest.raises(AudioDeviceError, match="'hdmi' not found .*USB Audio Device"):
        choose_device("hdmi", names)


def test_sound_opens_the_mixer_with_the_pi_safe_buffer_and_plays_clips_for_cues() -> None:
    snd = Sound.open()
    try:
        assert snd is not None
        assert BUFFER >= 2048
        snd.play("hit")
        snd.announce("Round 1! Seat 4 counts: 3, 2, 1, Burrito!")
        snd.announce("nothing to play for this")
        snd.play("not-a-cue")
        assert snd.played == ["hit.wav", "countdown.wav"]
    finally:
        if snd is not None:
            snd.close()
        pygame.quit()


def test_every_taco_vs_burrito_sound_cue_has_a_clip() -> None:
    """The rules module's own sound cues (countdown, No Bueno, Health Inspector, win) all map to committed clips."""
    import re

    source = (Path(__file__).parent.parent / "game" / "games" / "taco_vs_burrito" / "rules.py").read_text(encoding="utf-8")
    names = set(re.findall(r'Cue\(t, "sound", "([a-z-]+)"\)', source))
    assert {"no-bueno", "health-inspector", "win"} <= names
    for name in names:
        assert (ASSETS / EFFECTS[name]).exists()
