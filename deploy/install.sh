#!/bin/sh
# Install the Burrito Table kiosk on Raspberry Pi OS Lite (Bookworm). Run as root from the repository checkout:
#   sudo sh deploy/install.sh
set -eu
REPO=$(cd "$(dirname "$0")/.." && pwd)
USER_NAME=burrito
HOME_DIR=/home/$USER_NAME

# espeak-ng: the announcer's voice (without it the table plays jingles and says why at start)
apt-get install -y python3-venv python3-lgpio libsdl2-2.0-0 espeak-ng
id "$USER_NAME" >/dev/null 2>&1 || useradd --create-home --shell /usr/sbin/nologin "$USER_NAME"
for g in video render input dialout audio gpio i2c; do
    getent group "$g" >/dev/null && usermod -aG "$g" "$USER_NAME"
done
if [ ! -d "$HOME_DIR/burrito-table" ]; then
    cp -r "$REPO" "$HOME_DIR/burrito-table"
fi
chown -R "$USER_NAME:$USER_NAME" "$HOME_DIR/burrito-table"
sudo -u "$USER_NAME" sh -c "cd $HOME_DIR/burrito-table && python3 -m venv --system-site-packages .venv && .venv/bin/pip install -e ."
# The table menu's "shut down" may power off, and nothing else.
echo "$USER_NAME ALL=(root) NOPASSWD: /usr/bin/systemctl poweroff" > /etc/sudoers.d/burrito-table
chmod 440 /etc/sudoers.d/burrito-table
install -m 644 "$REPO/deploy/burrito-table.service" /etc/systemd/system/burrito-table.service
systemctl disable --now getty@tty1.service || true
systemctl daemon-reload
systemctl enable --now burrito-table.service
echo "installed: logs with 'journalctl -u burrito-table -f'"
