"""Player badge main loop (MicroPython). Same hardware and loop as a burrito, with the badge detector, which reports
impacts on its wearer. Copy ``burrito_main.py`` to the board too, and this file as main.py."""

import burrito_main

burrito_main.run("badge")
