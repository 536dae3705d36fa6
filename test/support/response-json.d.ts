// Tests read many JSON bodies whose shape they then assert field by field;
// typing each one would only restate the assertions.
declare global {
  interface Response {
    json(): Promise<any>
  }
}
export {}
