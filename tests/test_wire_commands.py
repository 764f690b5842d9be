"""The device subcommands (firmware_bridge/host/commands.py) against a virtual table in another process."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from firmware_bridge.host import commands


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    commands.add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_devices_lists_health_of_virtual_devices(tmp_path: Path, capsys) -> None:
    link, pairings = tmp_path / "rx", tmp_path / "p.json"
    proc = subprocess.Popen([sys.executable, "-c", "from firmware_bridge.host.commands import *; import sys; "
                             "sys.exit(cmd_virtual_table(__import__('argparse').Namespace(burritos=1, badges=1, "
                             f"link=__import__('pathlib').Path({str(link)!r}), "
                             f"pairings=__import__('pathlib').Path({str(pairings)!r}), script=None, seconds=8)))"],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert "virtual receiver on" in proc.stdout.readline()
        assert run(["devices", "--port", str(link), "--pairings", str(pairings), "--wait", "2"]) == 0
        out = capsys.readouterr().out
        assert "burrito-1" in out and "badge-1" in out and "online" in out and "unseen" not in out
        assert "dropped: corrupt 0" in out
    finally:
        proc.terminate()
        proc.wait(5)


def test_bad_pairing_file_exits_2_with_one_line(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "p.json"
    bad.write_text("[1, 2")
    assert run(["pair", "--seat", "1", "--port", str(tmp_path / "none"), "--pairings", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and err.count("\n") == 1


def test_virtual_table_script_errors_name_the_line(tmp_path: Path, capsys) -> None:
    script = tmp_path / "s.jsonl"
    script.write_text('{"t": 0, "device": "burrito-1", "kind": "launch"}\n{"t": "x"}\n')
    assert run(["virtual-table", "--script", str(script), "--seconds", "0"]) == 2
    assert f"{script}:2:" in capsys.readouterr().err
