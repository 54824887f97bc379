/**
 * Reads of one key asked for in the same turn of the event loop, made once: the first caller's
 * read is sent after the turn's other callbacks ran, and every caller of that key until then
 * gets its result. A caller that comes once the read was sent waits for the next one, so each
 * caller's answer comes from a read that started after it asked — as fresh as a read of its own
 * (a credential revoked before a request arrived is seen revoked by that request). Under load,
 * the requests one client sends at once with one credential then cost one lookup, not one each.
 */
export class SharedReads<K, V> {
  readonly #waiting = new Map<K, Promise<V>>();

  read(key: K, load: () => Promise<V>): Promise<V> {
    const waiting = this.#waiting.get(key);
    if (waiting) return waiting;
    const read = new Promise<V>((resolve, reject) => {
      setImmediate(() => {
        // Taken off before the read is sent: whoever asks from now on gets a later read.
        this.#waiting.delete(key);
        load().then(resolve, reject);
      });
    });
    this.#waiting.set(key, read);
    return read;
  }
}
