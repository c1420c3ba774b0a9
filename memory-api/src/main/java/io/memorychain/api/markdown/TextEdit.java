package io.memorychain.api.markdown;

/** One replacement of a patch: {@code oldText} must occur exactly once in the file as it is at that point. */
public record TextEdit(String oldText, String newText) {}
