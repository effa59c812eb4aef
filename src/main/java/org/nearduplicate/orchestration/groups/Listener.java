package org.nearduplicate.orchestration.groups;

/** Where an asynchronous step of a groups run answers: its value, or why it failed. Adapters bridge their listener. */
public interface Listener<T> {
    void onResponse(T value);

    void onFailure(Exception e);
}
