import { Button, type ButtonProps } from '@mantine/core';
import { type ComponentPropsWithoutRef, type MouseEvent, useState } from 'react';

type LoadingButtonProps = ButtonProps &
  Omit<ComponentPropsWithoutRef<'button'>, keyof ButtonProps | 'onClick'> & {
    /** May return a promise: the button spins and is disabled until it settles. */
    onClick?: (event: MouseEvent<HTMLButtonElement>) => unknown;
  };

/**
 * A button that shows a spinner and is disabled while its action runs
 * (spec 000 §4): pass an async onClick, or drive `loading` from a mutation.
 */
export function LoadingButton({ onClick, loading, disabled, ...props }: LoadingButtonProps) {
  const [isRunning, setIsRunning] = useState(false);

  async function handleClick(event: MouseEvent<HTMLButtonElement>) {
    if (!onClick) return;
    const result = onClick(event);
    if (!(result instanceof Promise)) return;
    setIsRunning(true);
    try {
      await result;
    } catch {
      // The action reports its own errors; the button only stops spinning.
    } finally {
      setIsRunning(false);
    }
  }

  const isLoading = Boolean(loading) || isRunning;
  return (
    <Button
      {...props}
      loading={isLoading}
      disabled={disabled || isLoading}
      onClick={onClick ? handleClick : undefined}
    />
  );
}
