// A FIFO semaphore for one Node process; a mutex is a semaphore of one.
// acquire() resolves to a release function; release() hands the permit to the next waiter.
export class Semaphore {
  constructor(permits) {
    this.permits = permits;
    this.waiters = [];
  }

  acquire() {
    const release = () => this.release();
    if (this.permits > 0) {
      this.permits -= 1;
      return Promise.resolve(release);
    }
    return new Promise((resolve) => this.waiters.push(() => resolve(release)));
  }

  release() {
    const next = this.waiters.shift();
    if (next) next();
    else this.permits += 1;
  }
}

export class Mutex extends Semaphore {
  constructor() {
    super(1);
  }
}
