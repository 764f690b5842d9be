"""Suite-wide settings: everything runs headless."""

import os

# SDL's dummy drivers: no window and no sound card on CI (pygame-ce reads these at init).
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
