// A part of the screen (a page, the assistant panel) that fails while it
// renders shows a calm sentence with Reload in its place, and the rest of the
// console goes on working, instead of the whole tab going white. Another page
// (`resetOn` changes) tries the part again.
import { Component, type ReactNode } from 'react';

interface Props {
  /** The part, as the sentence names it: "This page", "The assistant". */
  what: string;
  /** Holds the sentence where the part would be (so the panel keeps its place and its name); the sentence alone when absent. */
  frame?: (sentence: ReactNode) => ReactNode;
  /** A new value renders the part again. */
  resetOn?: unknown;
  children: ReactNode;
}

interface State {
  failure: Error | null;
}

export class ErrorBoundary extends Component<Props, State> {
  state: State = { failure: null };

  static getDerivedStateFromError(error: unknown): State {
    return { failure: error instanceof Error ? error : new Error(String(error)) };
  }

  componentDidUpdate(previous: Props) {
    if (this.state.failure && !Object.is(previous.resetOn, this.props.resetOn)) this.setState({ failure: null });
  }

  render() {
    const { failure } = this.state;
    if (!failure) return this.props.children;
    const sentence = (
      <div className="part-failed" role="alert">
        <p>{this.props.what} could not be shown: something in the console went wrong. Reloading the tab usually brings it back; unsaved drafts stay.</p>
        <p className="muted small">{failure.message}</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
    return this.props.frame ? this.props.frame(sentence) : sentence;
  }
}
