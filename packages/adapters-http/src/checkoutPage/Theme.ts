/**
 * The merchant's colors on the page, kept at WCAG AA. A link's
 * `primaryColor` is the buttons' background (white text on it) and the
 * links' and copy buttons' text on white; `fontColor` is the text on the
 * white panels and on the page's background; `secondaryColor` is that
 * background. Each must reach 4.5:1 against what it sits on; one that does
 * not is moved, by the smallest step found, toward black (text, buttons) or
 * white (background) until it does, and the page records the change
 * (`data-color-*` on the body, a comment in the head), so the merchant and a
 * test can see which color was used instead of theirs.
 *
 * The colors go to the browser as a stylesheet whose path is the colors
 * themselves (`/pay/assets/theme-{accent}-{background}-{ink}.css`): the
 * Content-Security-Policy allows no inline style, and a path that names its
 * content can be cached for good.
 */
import type { HostedColors } from "@billing/core"
import { ASSETS_PATH } from "./Assets.ts"

/** WCAG AA for normal text. */
export const MIN_CONTRAST = 4.5

const WHITE = "#ffffff"
const BLACK = "#000000"

/** The stylesheet's own colors (`:root` of checkout.css), for what the link leaves unset. */
const DEFAULTS = { accent: "#0b5cad", background: "#f4f6f8", ink: "#1f2933", muted: "#4a5563" } as const

const channels = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16))

const toHex = (rgb: ReadonlyArray<number>) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`

/** WCAG 2 relative luminance of `#RRGGBB`. */
export const luminance = (hex: string): number => {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}

/** WCAG 2 contrast ratio of two colors, 1 to 21. */
export const contrast = (a: string, b: string): number => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light! + 0.05) / (dark! + 0.05)
}

/**
 * `color`, or the first mix of it toward `toward` (in steps of 2%) that
 * reaches `MIN_CONTRAST` against every one of `against`. Toward black from
 * a color on white (or toward white behind dark text) always gets there.
 */
export const readable = (color: string, against: ReadonlyArray<string>, toward: string): string => {
  const from = channels(color.toLowerCase())
  const to = channels(toward)
  for (let step = 0; step <= 50; step++) {
    const mixed = toHex(from.map((c, i) => c + (to[i]! - c) * (step / 50)))
    if (against.every((other) => contrast(mixed, other) >= MIN_CONTRAST)) return mixed
  }
  return toward
}

/** A color of the link the page did not use as given. */
export interface ColorAdjustment {
  readonly setting: "primaryColor" | "secondaryColor" | "fontColor"
  readonly requested: string
  readonly used: string
}

export interface PageTheme {
  readonly accent: string
  readonly background: string
  readonly ink: string
  readonly adjustments: ReadonlyArray<ColorAdjustment>
  /** The stylesheet of these colors. */
  readonly path: string
}

const THEME_PATH = new RegExp(`^${ASSETS_PATH}/theme-([0-9a-f]{6})-([0-9a-f]{6})-([0-9a-f]{6})\\.css$`)

/** The colors of the page for a link's `colors`; none when it sets none (the stylesheet's own apply). */
export const themeOf = (colors: HostedColors): PageTheme | undefined => {
  if (colors.primary === null && colors.secondary === null && colors.font === null) return undefined
  const accent = readable(colors.primary ?? DEFAULTS.accent, [WHITE], BLACK)
  const ink = readable(colors.font ?? DEFAULTS.ink, [WHITE], BLACK)
  const background = readable(colors.secondary ?? DEFAULTS.background, [ink, DEFAULTS.muted], WHITE)
  const adjustments: Array<ColorAdjustment> = []
  const record = (setting: ColorAdjustment["setting"], requested: string | null, used: string) => {
    if (requested !== null && requested.toLowerCase() !== used) adjustments.push({ setting, requested, used })
  }
  record("primaryColor", colors.primary, accent)
  record("secondaryColor", colors.secondary, background)
  record("fontColor", colors.font, ink)
  const path = `${ASSETS_PATH}/theme-${accent.slice(1)}-${background.slice(1)}-${ink.slice(1)}.css`
  return { accent, background, ink, adjustments, path }
}

/** The stylesheet at `path`, when it is a theme's: only custom properties, from colors checked by the path's pattern. */
export const themeStylesheetAt = (path: string): string | undefined => {
  const match = THEME_PATH.exec(path)
  if (match === null) return undefined
  const [, accent, background, ink] = match
  return `:root { --accent: #${accent}; --bg: #${background}; --ink: #${ink}; }\n`
}
