"""Zombie Burrito on a phone (the companion, ``game.web``): the seat's team and teammates, the Team Markers, its
team's advantage sets, and the advantage kind (or teammate to revive) its chooser is on; the phone's seat buttons
move and choose it, as the panel's do."""

from __future__ import annotations

from typing import Any


def phone_view(app: Any, seat: int) -> dict[str, Any]:
    st = app.state
    team = st.team_of.get(seat)
    sets = [{"seat": s, "side": side, "kind": kind} for s, side, kind in st.sets if st.team_of.get(s) == team]
    chooser = getattr(app.mapper, "choosers", {}).get(seat)
    choice = None
    if chooser is not None:
        choice = {"purpose": chooser.purpose, "items": [" ".join(x for x in item if x) for item in chooser.items],
                  "cursor": chooser.cursor}
    return {"zombie": {"team": team, "teammates": list(st.teams.get(team, [])), "markers": dict(st.markers),
                       "sets": sets, "choice": choice}}


def phone_public(app: Any) -> dict[str, Any]:
    st = app.state
    return {"markers": dict(st.markers), "teams": {k: list(v) for k, v in st.teams.items()}}
