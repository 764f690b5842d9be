"""The table app: the play loop, the screens, sound, simulation mode, the demo's bots and the kiosk.

``game.table.commands`` registers ``burrito-table play`` and ``burrito-table demo``.
"""
