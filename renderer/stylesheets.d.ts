// A stylesheet is imported for its effect (Vite bundles it), and TypeScript checks that such an
// import resolves to something it knows.
declare module '*.css';
