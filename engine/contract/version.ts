export const contractVersion = '0.1.0';
