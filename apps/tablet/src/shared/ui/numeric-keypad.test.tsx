import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { NumericKeypad, parseKeypadValue } from './numeric-keypad';

function Harness({ allowNegative = true }: { allowNegative?: boolean }) {
  const [value, setValue] = useState('');
  return (
    <>
      <NumericKeypad
        label="Temperature"
        value={value}
        onChange={setValue}
        unit="°C"
        allowNegative={allowNegative}
      />
      <output data-testid="parsed">{String(parseKeypadValue(value))}</output>
    </>
  );
}

const key = (name: string) => screen.getByRole('button', { name });
const display = () => screen.getByRole('textbox', { name: 'Temperature' }) as HTMLInputElement;

describe('NumericKeypad', () => {
  it('types a negative value with the minus key and shows it with its unit', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(key('Minus'));
    await user.click(key('1'));
    await user.click(key('5'));
    expect(display().value).toBe('-15');
    expect(screen.getByText('°C')).toBeTruthy();
    expect(screen.getByTestId('parsed').textContent).toBe('-15');
  });

  it('keeps a decimal value and "-0.5" as typed, with one decimal point at most', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(key('3'));
    await user.click(key('Decimal point'));
    await user.click(key('5'));
    await user.click(key('Decimal point'));
    expect(display().value).toBe('3.5');
    expect(screen.getByTestId('parsed').textContent).toBe('3.5');

    await user.click(key('Clear'));
    expect(display().value).toBe('');
    expect(screen.getByTestId('parsed').textContent).toBe('null');
    await user.click(key('Minus'));
    await user.click(key('Decimal point'));
    await user.click(key('5'));
    expect(display().value).toBe('-0.5');
    expect(screen.getByTestId('parsed').textContent).toBe('-0.5');
  });

  it('erases the last character and toggles the sign without losing the digits', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    for (const digit of ['1', '2', '7']) await user.click(key(digit));
    await user.click(key('Erase'));
    expect(display().value).toBe('12');
    await user.click(key('Minus'));
    expect(display().value).toBe('-12');
    await user.click(key('Minus'));
    expect(display().value).toBe('12');
    await user.click(key('Erase'));
    await user.click(key('Erase'));
    expect(display().value).toBe('');
    expect(screen.getByTestId('parsed').textContent).toBe('null');
  });

  it('replaces a lone leading zero by the next digit', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(key('0'));
    await user.click(key('4'));
    expect(display().value).toBe('4');
  });

  it('takes a physical keyboard: digits, comma as point, minus, Escape to clear, letters ignored', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(display());
    await user.keyboard('2,5x');
    expect(display().value).toBe('2.5');
    await user.keyboard('-');
    expect(display().value).toBe('-2.5');
    await user.keyboard('.');
    expect(display().value).toBe('-2.5');
    await user.keyboard('{Backspace}');
    expect(display().value).toBe('-2.');
    await user.keyboard('{Escape}');
    expect(display().value).toBe('');
  });

  it('offers no minus key where a value cannot be negative (polarity)', async () => {
    const user = userEvent.setup();
    render(<Harness allowNegative={false} />);
    expect(screen.queryByRole('button', { name: 'Minus' })).toBeNull();
    await user.click(display());
    await user.keyboard('-8');
    expect(display().value).toBe('8');
  });
});

describe('parseKeypadValue', () => {
  it('reads what was typed, null while there is no digit', () => {
    expect(parseKeypadValue('')).toBeNull();
    expect(parseKeypadValue('-')).toBeNull();
    expect(parseKeypadValue('-0.')).toBe(0);
    expect(Object.is(parseKeypadValue('-0'), 0)).toBe(true);
    expect(parseKeypadValue('3.')).toBe(3);
    expect(parseKeypadValue('-15')).toBe(-15);
  });
});
