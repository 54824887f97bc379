import type { MqttClient } from 'mqtt';

/**
 * How the mqtt.publish sink's publishes leave and their acknowledgements come back, for a
 * workflow that delivers a batch's outputs at once and waits for every PUBACK before it commits:
 *
 * - The socket is corked until the event loop's turn ends, so the publishes issued in one turn (as
 *   sandbox results arrive) leave in one write, not one system call each.
 * - While PUBACKs are outstanding, each one that arrives is answered with a PINGREQ (once per
 *   turn). A broker that leaves Nagle's algorithm on (Mosquitto's default: set_tcp_nodelay false)
 *   sends the first PUBACK of a burst and holds the rest until that segment is acknowledged, and
 *   with nothing of ours to send the kernel delays that acknowledgement by up to 40 ms: a batch's
 *   80 publishes took ~48 ms to be acknowledged, and ~7 ms with the ping to carry the ACK.
 *
 * Only the timing changes: each publish still resolves on its own PUBACK.
 */
export class MqttPublishFlow {
  private corked = false;
  private outstanding = 0;
  private nudging = false;

  constructor(private readonly client: MqttClient) {}

  /** Call before a publish: holds this turn's writes together. */
  sent(): void {
    this.outstanding++;
    const stream = this.client.stream as { cork?: () => void; uncork?: () => void } | undefined;
    if (this.corked || !stream?.cork || !stream.uncork) return;
    this.corked = true;
    stream.cork();
    setImmediate(() => {
      this.corked = false;
      stream.uncork?.();
    });
  }

  /** Call when a publish settled: while others wait for their PUBACK, gives our acknowledgement a packet to ride on. */
  settled(): void {
    this.outstanding--;
    if (this.outstanding === 0 || this.nudging) return;
    this.nudging = true;
    setImmediate(() => {
      this.nudging = false;
      if (this.outstanding > 0 && this.client.connected) this.client.sendPing();
    });
  }
}
