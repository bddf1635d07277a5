/** A minimal event emitter with VS Code's shape (`event(listener)` returns a disposable), free of `vscode`. */
export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (value: T) => void) => Disposable;

export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = listener => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch {
        // One broken listener must not stop the others or the bridge.
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
