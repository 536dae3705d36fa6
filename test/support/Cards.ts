/**
 * Card expirations (`MM/YYYY`) for tests. The engine refuses a card that
 * expired before the month its clock reads, so a fixed year would make the
 * suite fail by itself once the real date passed it: the year is counted
 * from the year the engine's clock reads (the real year, unless the test
 * runs the engine or an account on a clock of its own), far enough ahead
 * that a test moving its clock a year or two still finds the card valid.
 */
export const cardExpiration = (clockYear: number = new Date().getUTCFullYear()): string => `12/${clockYear + 5}`
