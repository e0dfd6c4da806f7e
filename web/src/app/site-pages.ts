/** The page table lives in shared/ (the server, the build and the tests read it too). */
export * from '../../../shared/site-pages.js';
