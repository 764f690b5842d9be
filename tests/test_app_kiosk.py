"""The kiosk unit: tty1 for KMS/DRM, the groups, restart on failure, logs to journald."""

from __future__ import annotations

import subprocess
from pathlib import Path

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"


def unit() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in (DEPLOY / "burrito-table.service").read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.startswith("#"):
            k, v = line.split("=", 1)
            out.setdefault(k.strip(), []).append(v.strip())
    return out


def test_the_unit_runs_on_tty1_with_kmsdrm_the_groups_restart_and_journald() -> None:
    u = unit()
    assert u["TTYPath"] == ["/dev/tty1"] and "getty@tty1.service" in u["Conflicts"][0]
    assert "SDL_VIDEODRIVER=kmsdrm" in u["Environment"]
    assert {"video", "render", "input", "dialout"} <= set(u["SupplementaryGroups"][0].split())
    assert u["Restart"] == ["on-failure"] and u["StandardOutput"] == ["journal"] and u["StandardError"] == ["journal"]
    assert "burrito-table play" in u["ExecStart"][0] and u["WantedBy"] == ["multi-user.target"]


def test_the_install_script_is_valid_shell_and_enables_the_unit() -> None:
    script = DEPLOY / "install.sh"
    subprocess.run(["sh", "-n", str(script)], check=True)
    text = script.read_text(encoding="utf-8")
    assert "systemctl enable --now burrito-table.service" in text and "getty@tty1" in text
