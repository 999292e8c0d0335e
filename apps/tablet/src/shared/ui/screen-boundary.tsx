import { Component, type ReactNode } from 'react';

type ScreenBoundaryProps = {
  /** What to show instead of a screen that failed (e.g. its code could not be loaded). */
  fallback: (reset: () => void) => ReactNode;
  /** Changes when another screen opens: the boundary starts fresh. */
  screenKey: string;
  children: ReactNode;
};

type ScreenBoundaryState = { hasFailed: boolean; screenKey: string };

/** Keeps the shell (top bar, outbox, menu) on screen when one screen fails. */
export class ScreenBoundary extends Component<ScreenBoundaryProps, ScreenBoundaryState> {
  override state: ScreenBoundaryState = { hasFailed: false, screenKey: this.props.screenKey };

  static getDerivedStateFromError(): Partial<ScreenBoundaryState> {
    return { hasFailed: true };
  }

  static getDerivedStateFromProps(
    props: ScreenBoundaryProps,
    state: ScreenBoundaryState,
  ): Partial<ScreenBoundaryState> | null {
    return props.screenKey !== state.screenKey
      ? { hasFailed: false, screenKey: props.screenKey }
      : null;
  }

  override render() {
    if (this.state.hasFailed) return this.props.fallback(() => this.setState({ hasFailed: false }));
    return this.props.children;
  }
}
