import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { ErrorScreen } from '../components/ErrorScreen';

/** The router's error element: a render or loader error becomes the error screen. */
export function RouteErrorScreen() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`.trim()
    : error instanceof Error
      ? error.message
      : undefined;
  return <ErrorScreen message={message} />;
}
