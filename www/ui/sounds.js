// Game sounds synthesised with Web Audio: move, capture, check, the computer's "ding", and game end.

/** Plays short synthesised sounds; silent until the first user gesture has allowed audio. */
export class Sounds {
  constructor() {
    /** Whether sounds are off. */
    this.muted = false;
    /** @type {AudioContext | null} */
    this.context = null;
  }

  /** The audio context, created on first use; null where Web Audio is missing. */
  audio() {
    if (this.context) return this.context;
    const Context = globalThis.AudioContext ?? globalThis.webkitAudioContext;
    if (!Context) return null;
    this.context = new Context();
    return this.context;
  }

  /** Resumes audio inside a user gesture (browsers start contexts suspended). */
  unlock() {
    const ctx = this.audio();
    if (ctx?.state === "suspended") ctx.resume().catch(() => {});
  }

  /**
   * One tone: frequency in Hz, start offset and length in seconds, peak gain, oscillator type.
   * @param {number} frequency
   * @param {number} at
   * @param {number} length
   * @param {number} gain
   * @param {OscillatorType} [type]
   */
  tone(frequency, at, length, gain, type = "sine") {
    const ctx = this.audio();
    if (!ctx || this.muted || ctx.state !== "running") return;
    const start = ctx.currentTime + at;
    const osc = ctx.createOscillator();
    const amp = ctx.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(frequency, start);
    amp.gain.setValueAtTime(0.0001, start);
    amp.gain.exponentialRampToValueAtTime(gain, start + 0.005);
    amp.gain.exponentialRampToValueAtTime(0.0001, start + length);
    osc.connect(amp).connect(ctx.destination);
    osc.start(start);
    osc.stop(start + length + 0.02);
  }

  /** A wooden knock for a quiet move. */
  move() {
    this.tone(220, 0, 0.08, 0.35, "triangle");
    this.tone(110, 0, 0.06, 0.2, "sine");
  }

  /** A sharper double knock for a capture. */
  capture() {
    this.tone(300, 0, 0.07, 0.35, "triangle");
    this.tone(180, 0.05, 0.1, 0.3, "triangle");
  }

  /** A high warning blip for check. */
  check() {
    this.tone(880, 0, 0.12, 0.2, "square");
    this.tone(660, 0.08, 0.12, 0.15, "square");
  }

  /** A bell-like ding when the computer has moved. */
  ding() {
    this.tone(1318.5, 0.02, 0.6, 0.12, "sine");
    this.tone(2637, 0.02, 0.3, 0.04, "sine");
  }

  /** A short chord when the game ends. */
  end() {
    for (const [i, f] of [523.25, 659.25, 783.99].entries()) this.tone(f, i * 0.09, 0.7, 0.12, "sine");
  }

  /**
   * The sound for a played move: check, capture or plain move.
   * @param {{capture?: unknown, check?: boolean}} played
   */
  forMove(played) {
    if (played.check) this.check();
    else if (played.capture) this.capture();
    else this.move();
  }
}
