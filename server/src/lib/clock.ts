/** The current time. Injected so tests can move time without waiting. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

export const addSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);
