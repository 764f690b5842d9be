"""Burrito Table: everything about play.

``game.rules`` holds one pure rules module per game; around it sit the
table-event log, the journal and the command line.
"""
