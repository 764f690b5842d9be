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
    for clip in ("hit.wav", "countdown.wav", "win.wav", "no_bueno.wav", "eliminated.wav"):
        assert hashlib.sha256((tmp_path / clip).read_bytes()).digest() == hashlib.sha256((ASSETS / clip).read_bytes()).digest()


def test_audio_device_is_chosen_by_name_and_a_missing_one_lists_what_is_there() -> None:
    names = ["Built-in Audio Analog Stereo", "USB Audio Device"]
    assert choose_device("usb", names) == "USB Audio Device"
    assert choose_device(None, names) is None
    with pytest.raises(AudioDeviceError, match="'hdmi' not found .*USB Audio Device"):
        choose_device("hdmi", names)


def test_sound_opens_the_mixer_with_the_pi_safe_buffer_and_plays_clips_for_cues() -> None:
    """With the voice off (a house setting), an announcement plays its jingle; effects play their clips."""
    snd = Sound.open(voice=False)
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


def test_zombie_burrito_and_taco_vs_burrito_have_clips_of_their_own() -> None:
    """No Bueno, the Health Inspector, Battle!, revives and Team Markers no longer borrow Throw Throw Burrito clips."""
    ttb = {EFFECTS[c] for c in ("countdown", "hit", "miss", "catch", "tie", "bruise", "badge", "win", "brawl", "war", "duel")}
    ttb |= {"round.wav", "final.wav"}
    for cue in ("no-bueno", "health-inspector", "battle", "set", "revive", "marker"):
        assert EFFECTS[cue] not in ttb, cue
        assert (ASSETS / EFFECTS[cue]).exists()


def test_a_zombie_burrito_elimination_plays_its_own_clip() -> None:
    snd = Sound.open(voice=False)
    try:
        assert snd is not None
        snd.announce("HIT! Seat 3 is out (the Zombie burrito)")
        snd.announce("CATCH! Seat 2 catches the Zombie burrito: seat 5 is out")
        snd.announce("HIT! Seat 3 takes it: 1 extra hit(s) left")
        assert snd.played == ["eliminated.wav", "eliminated.wav"]
    finally:
        if snd is not None:
            snd.close()
        pygame.quit()


def test_every_clip_is_at_the_tables_loudness() -> None:
    """One loudness: every committed clip measures the target within 0.1 LU, and none peaks past the ceiling."""
    from game.table import loudness

    clips = sorted(ASSETS.glob("*.wav"))
    assert len(clips) >= 20
    for clip in clips:
        samples, rate = loudness.read_wav(clip)
        assert abs(loudness.integrated(samples, rate) - loudness.TARGET_LUFS) < 0.1, clip.name
        assert loudness.peak_db(samples) <= loudness.PEAK_CEILING_DB, clip.name
