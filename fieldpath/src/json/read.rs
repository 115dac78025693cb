//! A JSON reader with json-iterator's acceptance and error messages. (Stub.)
