/** A durable consumer's name: JetStream allows letters, digits, `_` and `-` (no `.`, `*`, `>` or spaces). */
const DURABLE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function checkDurableName(name: string): void {
  if (!DURABLE_NAME.test(name)) throw new TypeError(`Invalid durable consumer name: ${name}`);
}
