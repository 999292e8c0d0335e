import { fireEvent, screen } from '@testing-library/react';

/** Types "hh:mm" into a ClockTimeInput (shared/ui/clock-time-input): its hours, then minutes. */
export function setClockTime(testId: string, value: string): void {
  const [hours = '', minutes = ''] = value.split(':');
  fireEvent.change(screen.getByTestId(`${testId}-hours`), { target: { value: hours } });
  fireEvent.change(screen.getByTestId(`${testId}-minutes`), { target: { value: minutes } });
}
