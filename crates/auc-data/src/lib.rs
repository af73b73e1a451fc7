//! Parsing and preparing data (in progress).
