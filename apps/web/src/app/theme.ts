import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  type MantineColorsTuple,
  Select,
} from '@mantine/core';

/** Spec 000 §9: a dropdown is at most the viewport height minus 50 px. */
const dropdownMaxHeight = 'calc(100vh - 50px)';

/**
 * Mantine's teal from shade 4 on, darkened: white on the filled shade (6, #087f5b) is 5.0:1
 * and teal text on white too (WCAG AA asks 4.5:1; Mantine's #12b886 gives 2.55:1).
 */
const teal: MantineColorsTuple = [
  '#e6fcf5',
  '#c3fae8',
  '#96f2d7',
  '#63e6be',
  '#20c997',
  '#0ca678',
  '#087f5b',
  '#0a7356',
  '#08664d',
  '#065a44',
];

/** Mantine's gray with shade 6 (dimmed text) darkened: 5.8:1 on white, 5.2:1 on gray.1. */
const gray: MantineColorsTuple = [
  ...DEFAULT_THEME.colors.gray.slice(0, 6),
  '#5f666d',
  ...DEFAULT_THEME.colors.gray.slice(7),
] as unknown as MantineColorsTuple;

export const theme = createTheme({
  primaryColor: 'teal',
  colors: { teal, gray },
  // Filled buttons and badges pick black or white text, whichever contrasts more with their
  // colour: at a background luminance of 0.179 both give 4.58:1, so the choice is always ≥ 4.5.
  autoContrast: true,
  luminanceThreshold: 0.179,
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  components: {
    Select: Select.extend({ defaultProps: { maxDropdownHeight: dropdownMaxHeight } }),
  },
});

/** WCAG 2 contrast ratio of two #rrggbb colours. */
export function contrastRatio(first: string, second: string): number {
  const luminance = (hex: string) => {
    const [red, green, blue] = [1, 3, 5].map((start) => {
      const channel = Number.parseInt(hex.slice(start, start + 2), 16) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
  };
  const [lighter, darker] = [luminance(first), luminance(second)].sort((a, b) => b - a) as [
    number,
    number,
  ];
  return (lighter + 0.05) / (darker + 0.05);
}

/** WCAG AA for normal text. */
export const minimumTextContrast = 4.5;

/** A #rrggbb colour with each channel scaled down by `amount` (0.1 = 10 % darker). */
function darkenHex(hex: string, amount: number): string {
  return `#${[1, 3, 5]
    .map((start) =>
      Math.round(Number.parseInt(hex.slice(start, start + 2), 16) * (1 - amount))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** The first of the candidates (darkened further if none) that reads at AA on the background. */
function readableOn(background: string, candidates: string[]): string {
  const found = candidates.find((color) => contrastRatio(color, background) >= minimumTextContrast);
  if (found) return found;
  let color = candidates.at(-1) ?? '#000000';
  for (
    let step = 0;
    step < 20 && contrastRatio(color, background) < minimumTextContrast;
    step += 1
  ) {
    color = darkenHex(color, 0.1);
  }
  return color;
}

/**
 * Text in a theme colour reads at AA whatever the colour: `c="red"` text on white, and the
 * light variant (badges, alerts, active navigation) on its tinted background. Mantine's
 * defaults give e.g. 2.7:1 for the yellow alert and 3.3:1 for red text.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolvedTheme) => {
  const light: Record<string, string> = {};
  for (const [name, shades] of Object.entries(resolvedTheme.colors)) {
    if (name === 'dark') continue;
    light[`--mantine-color-${name}-text`] = readableOn('#ffffff', [
      shades[6],
      shades[7],
      shades[8],
      shades[9],
    ]);
    light[`--mantine-color-${name}-light-color`] = readableOn(shades[1], [shades[9]]);
  }
  return { variables: {}, light, dark: {} };
};
