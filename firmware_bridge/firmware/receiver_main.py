"""Receiver main loop (MicroPython on an ESP32-S3 plugged into the Pi's USB). Copy to the board as main.py.

It relays: ESP-NOW packets -> COBS frames on the USB serial port, and frames from the host -> ESP-NOW to the MAC named
in the frame's header. The logic is ``proto.Relay``; this file adds the radio and the USB CDC port. Ctrl-C handling
is switched off, because 0x03 is an ordinary byte inside frames. The receiver is itself a device of kind "receiver":
it says hello and sends heartbeats so the host can see it is alive.
"""

import os
import select
import sys
import time

import espnow
import machine
import micropython
import network
import proto

FW = (1, 3, 0)
CHANNEL = 1


def run():
    micropython.kbd_intr(-1)
    sta = network.WLAN(network.STA_IF)
    sta.active(True)
    sta.disconnect()
    sta.config(channel=CHANNEL)
    radio = espnow.ESPNow()
    radio.active(True)
    peers = set()
    usb_in = sys.stdin.buffer
    usb_out = sys.stdout.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)

    def to_host(data):
        usb_out.write(data)

    def to_radio(mac, packet):
        if mac not in peers:
            try:
                radio.add_peer(mac)
                peers.add(mac)
            except OSError:
                return  # peer table full (20 peers): this device cannot be reached
        try:
            radio.send(mac, packet, False)
        except OSError:
            pass

    clock = proto.Clock64(time.ticks_us, time.ticks_diff)
    relay = proto.Relay(sta.config("mac"), int.from_bytes(os.urandom(2), "little"), clock.now, to_host, to_radio,
                        fw=FW)
    relay.node.hello()
    errors = 0
    while True:
        try:  # the loop never ends on an exception; a run of them resets the board (as burrito_main does)
            while True:
                host, msg = radio.recv(0)
                if not host:
                    break
                relay.from_radio(bytes(host), msg)
            if poller.poll(1):
                data = usb_in.read(1)
                if data:
                    relay.from_host(data, clock.now())
            relay.node.poll()
            errors = 0
        except Exception:  # noqa: BLE001
            errors += 1
            if errors >= 500:
                machine.reset()


run()
