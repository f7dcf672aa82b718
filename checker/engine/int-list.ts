/** A typed-array list of integers that doubles when full: no per-item objects on millions of edges or states. */
export class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1 << 16) {
    this.data = new Int32Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
  toArray(): Int32Array {
    return this.data.slice(0, this.length);
  }
}
