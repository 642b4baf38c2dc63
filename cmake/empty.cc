// Placeholder so a module without sources yet still forms a library.
