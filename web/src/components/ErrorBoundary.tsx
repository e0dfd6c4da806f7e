import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorScreen } from './ErrorScreen';

interface ErrorBoundaryState {
  error: unknown;
}

/** Catches render errors anywhere below it and shows the error screen instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Unhandled render error', error, info.componentStack);
  }

  override render() {
    if (this.state.error !== null) {
      return <ErrorScreen message={this.state.error instanceof Error ? this.state.error.message : undefined} />;
    }
    return this.props.children;
  }
}
