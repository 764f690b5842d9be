"""The phone companion: a web server on the local network for private hands, names, spectators and the operator.

The server (:mod:`game.web.server`, Starlette on uvicorn) runs in its own thread. It never touches the game state:
the table loop hands it plain snapshots (:class:`game.web.bridge.Snapshot`) and takes its inputs from a queue
(:class:`game.web.bridge.TableBridge`), so a slow or crashed server cannot stall or break a game. :mod:`game.web.guard` bounds what the network can do
to it: JSON size and depth before parsing, sockets in all and per address, slow and idle sockets, log lines.
"""
