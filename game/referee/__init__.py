"""The referee: automatic calls from device and seat events, questions when the evidence is weak.

``Referee`` and ``Question`` are the app's API; ``evidence.evidence_lines`` explains a call; ``battlesim`` simulates
battles with ground truth at the event level and over virtual devices. Rules R1-R12: ``docs/referee.md``.
"""

from game.referee.referee import Backlog, Question, Referee

__all__ = ["Backlog", "Question", "Referee"]
