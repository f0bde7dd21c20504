/** Typed arrays that grow by doubling: columns of millions of rows without an object per row. */

import { present } from '../../domain/shared/present.js';
type TypedArray = Int32Array | Uint32Array | Float64Array | Uint8Array;
type Ctor<T extends TypedArray> = new (length: number) => T;

export class Column<T extends TypedArray> {
  private data: T;
  length = 0;

  constructor(
    private readonly ctor: Ctor<T>,
    capacity = 1024,
  ) {
    this.data = new ctor(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new this.ctor(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  at(index: number): number {
    return present(this.data[index], 'this.data[index]');
  }

  set(index: number, value: number): void {
    this.data[index] = value;
  }

  /** A view of the filled part (no copy). */
  view(): T {
    return this.data.subarray(0, this.length) as T;
  }
}
