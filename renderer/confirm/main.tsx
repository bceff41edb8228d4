import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../src/styles.css';
import './confirm.css';
import { ConfirmApp } from './ConfirmApp.tsx';
import { confirmDesk } from './confirmDesk.ts';

const desk = confirmDesk();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {desk ? (
      <ConfirmApp desk={desk} />
    ) : (
      <p className="card">Open this page from the address the desk printed when it started (it carries the confirmation token).</p>
    )}
  </StrictMode>,
);
