//! The JSON writer with json-iterator's two string escapers and float text. (Stub.)
