"""Tables publish to an MQTT broker; a venue service keeps the leaderboard (see docs/venue.md)."""
