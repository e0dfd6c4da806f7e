import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { ConfigProvider } from '../features/config/ConfigProvider';
import { ToastProvider } from '../features/toast/ToastProvider';
import { routes } from './routes';

const router = createBrowserRouter(routes);

export function App() {
  return (
    <ToastProvider>
      <ConfigProvider>
        <RouterProvider router={router} />
      </ConfigProvider>
    </ToastProvider>
  );
}
