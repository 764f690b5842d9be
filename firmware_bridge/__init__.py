"""Device firmware and the wire between the burritos, the badges and the Pi."""
