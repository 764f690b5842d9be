"""The announcer's voice: cue -> phrase, the phrase cache, rendering off the loop, playback with ducking, and the
jingle fallback without espeak-ng. Needs espeak-ng (tests/install-system-deps.sh): these fail, never skip, without it."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pygame
import pytest

from game.log import run_log
from game.registry import GAMES
from game.rules.players import Player
from game.table import loudness
from game.table.sound import Sound
from game.table.voice import DUCK, Announcer, VoiceSettings, known_phrases, phrase_for, phrase_key, spoken

ROOT = Path(__file__).resolve().parents[1]


def need_espeak() -> str:
    exe = shutil.which("espeak-ng")
    assert exe is not None, "espeak-ng is missing: run tests/install-system-deps.sh"
    return exe


@pytest.fixture
def mixer():
    pygame.mixer.pre_init(44100, -16, 1, 2048)
    pygame.mixer.init()
    pygame.mixer.set_num_channels(8)
    pygame.mixer.set_reserved(1)
    yield pygame.mixer
    pygame.mixer.quit()
    pygame.quit()


def announcer(cache: Path, clock=time.monotonic) -> Announcer:
    exe = need_espeak()
    from game.table.voice import espeak_version

    others = [pygame.mixer.Channel(i) for i in range(1, 8)]
    return Announcer(exe, espeak_version(exe), cache, VoiceSettings(), pygame.mixer.Channel(0), pygame.mixer.Sound,
                     lambda: others, clock=clock)


@pytest.mark.parametrize(("cue", "phrase"), [
    ("HIT! Seat 3 is hit by seat 1", "Seat 3 is hit!"),
    ("TIE! seat 1 and seat 3 hit 12 ms apart: tie Duel!", "Tie! seat 1 and seat 3: Duel!"),
    ("Round 1! Seat 4 counts: 3, 2, 1, Burrito!", "Round 1! Seat 4 counts: 3, 2, 1, Burrito!"),
    ("Seat 2 counts: 3.. 2.. 1.. Zombie Burrito!", "Seat 2 counts: 3, 2, 1, Zombie Burrito!"),
    ("CATCH! Seat 2 catches seat 4's burrito", "Catch! Seat 2 catches it!"),
    ("CATCH! Seat 2 catches the Zombie burrito: seat 5 is out", "Catch! Seat 2 catches it: seat 5 is out!"),
    ("BRAWL! called by seat 2", "Brawl! Called by seat 2"),
    ("HIT! Seat 3 is out (the Zombie burrito)", "Hit! Seat 3 is out, the Zombie burrito"),
    ("NO BUENO! Seat 2 blocks", "No Bueno! Seat 2 blocks"),
    ("Seat 1 lays down a set: +1", "Seat 1: a set!"),
    ("Last bruise! Round 1 is over. seat 4: 4 pts (1 bruise), seat 3: 3 pts (1 bruise), seat 1: 2 pts (2 bruises)",
     "Last bruise! Round 1 is over."),
])
def test_cue_to_phrase(cue: str, phrase: str) -> None:
    """Every say cue is spoken: short, calm capitals, no milliseconds or score tables read aloud."""
    assert spoken(cue) == phrase


def test_phrases_carry_the_players_names() -> None:
    players = {3: Player("Bob"), 1: Player("Ana", "#FF0000")}
    assert phrase_for("HIT! Seat 3 is hit by seat 1", players) == "Bob is hit!"
    assert phrase_for("TIE! seat 1 and seat 3 hit 8 ms apart: tie Duel!", players) == "Tie! Ana and Bob: Duel!"
    assert phrase_for("HIT! Seat 2 is hit", players) == "Seat 2 is hit!"


@pytest.mark.parametrize("game", ["throw-throw-burrito", "zombie-burrito"])
def test_known_phrases_cover_every_countdown_call_and_hit_of_a_whole_game(game: str) -> None:
    """Rendered at start, so none of the calls that must be on time waits for espeak-ng."""
    lines = GAMES[game].demo_log()
    table, cues = run_log(lines, "demo")
    players = {1: Player("Ana"), 2: Player("Bob")}
    known = set(known_phrases(game, table.setup.seats, players))
    timely = ("counts:", "3, 2, 1", "3.. 2.. 1..", "HIT!", "CATCH!", "called by", "misses")
    must = [c.text for c in cues if c.kind == "say" and any(w in c.text for w in timely)
            and "extra hit" not in c.text and "does not match" not in c.text]
    assert len(must) >= 8
    for text in must:
        assert phrase_for(text, players) in known, text


def test_cache_key_is_text_voice_speed_pitch_and_espeak_version() -> None:
    base = VoiceSettings()
    keys = {phrase_key("Seat 3 is hit!", base, "1.51"), phrase_key("Seat 4 is hit!", base, "1.51"),
            phrase_key("Seat 3 is hit!", VoiceSettings(voice="en-gb"), "1.51"),
            phrase_key("Seat 3 is hit!", VoiceSettings(speed=140), "1.51"),
            phrase_key("Seat 3 is hit!", VoiceSettings(pitch=40), "1.51"), phrase_key("Seat 3 is hit!", base, "1.52")}
    assert len(keys) == 6
    assert phrase_key("Seat 3 is hit!", base, "1.51") == phrase_key("Seat 3 is hit!", VoiceSettings(), "1.51")


def test_a_phrase_is_rendered_once_normalised_and_then_played_from_the_cache(mixer, tmp_path: Path) -> None:
    ann = announcer(tmp_path)
    try:
        ann.prepare(["Seat 3 is hit!", "Tie! Duel!", "Seat 3 is hit!"])
        assert ann.wait(30)
        assert [p for p, _ in ann.rendered] == ["Seat 3 is hit!", "Tie! Duel!"]
        wav = ann.path("Seat 3 is hit!")
        samples, rate = loudness.read_wav(wav)
        assert abs(loudness.integrated(samples, rate) - loudness.TARGET_LUFS) < 0.1
        # no lead-in silence: the first sample played is the word (the cue-to-sound latency depends on it)
        assert max(abs(v) for v in samples[: int(0.005 * rate)]) > 10 ** (-50 / 20)
        assert ann.say("Seat 3 is hit!") is True
        assert ann.channel.get_busy() and ann.spoken == ["Seat 3 is hit!"]
    finally:
        ann.close()
    again = announcer(tmp_path)  # a restarted table: from the disk cache, espeak-ng not run
    try:
        again.prepare(["Seat 3 is hit!"])
        assert again.wait(30) and again.rendered == [] and again.say("Seat 3 is hit!")
    finally:
        again.close()


def test_an_unforeseen_phrase_is_spoken_when_ready_or_dropped_when_stale(mixer, tmp_path: Path) -> None:
    now = [100.0]
    ann = announcer(tmp_path, clock=lambda: now[0])
    try:
        assert ann.say("Tie! Ana and Bob: Duel!") is False  # not cached: the loop does not wait
        assert ann.wait(30) and ann.spoken == ["Tie! Ana and Bob: Duel!"]
        ann.channel.stop()
        ann.say("Seat 5 is hit!")
        now[0] += 10.0  # the render finishes long after the call: saying it now would mislead
        assert ann.wait(30) and ann.dropped == ["Seat 5 is hit!"] and ann.spoken == ["Tie! Ana and Bob: Duel!"]
    finally:
        ann.close()


def test_effects_are_ducked_while_the_announcer_speaks(tmp_path: Path) -> None:
    need_espeak()
    snd = Sound.open(cache=tmp_path)
    try:
        assert snd is not None and snd.announcer is not None
        snd.announcer.close()  # no start-up renders: this test makes its own
        ann = announcer(tmp_path)
        snd.announcer = ann
        ann.prepare(["Seat 3 is hit!"])
        assert ann.wait(30)
        snd.play("hit")
        loud = pygame.mixer.Channel(1).get_volume()
        snd.announce("HIT! Seat 3 is hit")
        assert ann.spoken == ["Seat 3 is hit!"]
        snd.play("hit")
        ducked = [pygame.mixer.Channel(i).get_volume() for i in range(1, 8) if pygame.mixer.Channel(i).get_busy()]
        assert loud == pytest.approx(1.0, abs=0.01) and ducked and all(v == pytest.approx(DUCK, abs=0.01) for v in ducked)
        assert snd.played == ["hit.wav", "hit.wav"]  # the countdown jingle is not played: the voice says it
    finally:
        snd.close()
        pygame.quit()


def test_without_espeak_ng_the_jingles_play_and_the_table_says_why(tmp_path: Path, monkeypatch) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert shutil.which("espeak-ng") is None
    snd = Sound.open(cache=tmp_path / "cache")
    try:
        assert snd is not None and snd.announcer is None
        assert "espeak-ng is not installed" in snd.voice_note and "jingles" in snd.voice_note
        snd.announce("Round 1! Seat 4 counts: 3, 2, 1, Burrito!")
        assert snd.played == ["countdown.wav"]
    finally:
        snd.close()
        pygame.quit()
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").iterdir())


def test_the_cache_lives_in_the_users_xdg_cache(monkeypatch, tmp_path: Path) -> None:
    from game.table.voice import cache_dir

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "burrito-table" / "voice"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir() == Path(os.path.expanduser("~")) / ".cache" / "burrito-table" / "voice"
