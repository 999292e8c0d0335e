import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, cssVariablesResolver, theme } from './theme';

const resolvedTheme = mergeMantineTheme(DEFAULT_THEME, theme);
const white = '#ffffff';

describe('theme contrast (WCAG AA, 4.5:1)', () => {
  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', white)).toBeCloseTo(21, 5);
    expect(contrastRatio('#12b886', white)).toBeCloseTo(2.55, 2);
  });

  it('puts white text on the primary colour at AA (buttons, filled badges, avatars)', () => {
    const filled = resolvedTheme.colors.teal[6];
    expect(resolvedTheme.primaryColor).toBe('teal');
    expect(contrastRatio(white, filled)).toBeGreaterThanOrEqual(4.5);
    // Hover (shade 7) too.
    expect(contrastRatio(white, resolvedTheme.colors.teal[7])).toBeGreaterThanOrEqual(4.5);
  });

  it('dims secondary text (gray 6) at AA on white and on the light gray backgrounds', () => {
    const dimmed = resolvedTheme.colors.gray[6];
    for (const background of [white, resolvedTheme.colors.gray[0], resolvedTheme.colors.gray[1]]) {
      expect(contrastRatio(dimmed, background), background).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('gives every colour readable text on white and in its light variant', () => {
    const { light } = cssVariablesResolver(resolvedTheme);
    for (const [name, shades] of Object.entries(resolvedTheme.colors)) {
      if (name === 'dark') continue;
      const text = light[`--mantine-color-${name}-text`] as string;
      const lightColor = light[`--mantine-color-${name}-light-color`] as string;
      expect(contrastRatio(text, white), `${name} text`).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(lightColor, shades[1]), `${name} light`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('picks black or white text on filled colours, whichever reads at AA', () => {
    expect(resolvedTheme.autoContrast).toBe(true);
    // At the threshold luminance both black and white give 4.58:1.
    const luminance = resolvedTheme.luminanceThreshold;
    expect((1.05 / (luminance + 0.05)).toFixed(2)).toBe('4.59');
    expect(((luminance + 0.05) / 0.05).toFixed(2)).toBe('4.58');
  });
});
