"""Seat panels on GPIO: the pin map, the buttons, the lights and the wiring docs."""
