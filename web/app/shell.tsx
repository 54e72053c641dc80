import { useMemo, useState } from 'preact/hooks';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { apiClient } from '../shared/api';
import { ConsoleContext, type Console } from './console-context';
import { BoardPage } from './pages/board';
import { ChecksPage } from './pages/checks';
import { EventsPage } from './pages/events';
import { RecordPage } from './pages/record';
import { RecordsTablePage } from './pages/records-table';
import { WebhooksPage } from './pages/webhooks';
import { clearSession, loadSession, type Session } from './session';
import { SignIn } from './sign-in';

const NAV = [
  { href: '/app/', label: 'Board' },
  { href: '/app/records', label: 'Records' },
  { href: '/app/events', label: 'Events' },
  { href: '/app/checks', label: 'Checks' },
  { href: '/app/webhooks', label: 'Webhooks' },
];

/** The console: a sign-in page until a token is given, then the pages, one route each. */
export function Shell() {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  const [signedOutReason, setSignedOutReason] = useState<string>();
  const value = useMemo<Console | undefined>(
    () =>
      session && {
        session,
        client: apiClient(session.token),
        signOut(reason) {
          clearSession();
          setSignedOutReason(reason);
          setSession(undefined);
        },
      },
    [session],
  );

  if (!value) {
    const signedIn = (next: Session) => {
      setSignedOutReason(undefined);
      setSession(next);
    };
    return <SignIn reason={signedOutReason} onSignedIn={signedIn} />;
  }
  return (
    <ConsoleContext.Provider value={value}>
      <LocationProvider scope="/app">
        <Header />
        <main class="page" id="main">
          <Router>
            <Route path="/app/" component={BoardPage} />
            <Route path="/app/records" component={RecordsTablePage} />
            <Route path="/app/records/:id" component={RecordPage} />
            <Route path="/app/events" component={EventsPage} />
            <Route path="/app/checks" component={ChecksPage} />
            <Route path="/app/webhooks" component={WebhooksPage} />
            <Route default component={NotFound} />
          </Router>
        </main>
      </LocationProvider>
    </ConsoleContext.Provider>
  );
}

function Header() {
  const { path } = useLocation();
  const current = (href: string) => (href === '/app/' ? path === '/app/' || path === '/app' : path.startsWith(href));
  return (
    <ConsoleContext.Consumer>
      {(console) => (
        <header class="shell-header">
          <a class="brand" href="/app/">
            wrs
          </a>
          <nav aria-label="Console">
            <ul>
              {NAV.map((item) => (
                <li key={item.href}>
                  <a href={item.href} aria-current={current(item.href) ? 'page' : undefined}>
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div class="who">
            <span>
              {console!.session.userId ?? 'signed in'} · company <strong>{console!.session.companyId}</strong>
            </span>
            <button type="button" onClick={() => console!.signOut()}>
              Sign out
            </button>
          </div>
        </header>
      )}
    </ConsoleContext.Consumer>
  );
}

function NotFound() {
  return (
    <div class="notice">
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address in the console. <a href="/app/">Go to the board</a>.
      </p>
    </div>
  );
}
