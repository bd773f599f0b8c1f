// A token bucket: take() resolves at most `ratePerSecond` times a second, on average.
export class TokenBucket {
  constructor({ ratePerSecond }) {
    this.rate = ratePerSecond;
    this.tokens = ratePerSecond;
    this.last = Date.now();
  }

  async take() {
    for (;;) {
      const now = Date.now();
      this.tokens = Math.min(this.rate, this.tokens + ((now - this.last) / 1000) * this.rate);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, ((1 - this.tokens) / this.rate) * 1000));
    }
  }
}
