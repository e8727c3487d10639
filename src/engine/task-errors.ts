/** A failure that no retry can fix (a corrupt payload): the task fails at once. */
export class PermanentTaskError extends Error {
  override readonly name = "PermanentTaskError";
}
