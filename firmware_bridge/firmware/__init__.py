"""Device firmware: pure MicroPython modules (proto, detector) and the per-device main loops."""
