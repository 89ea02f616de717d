export declare const schemaFile: string;
export declare function openApiDocument(): Promise<object>;
export declare function apiTypes(document: object): Promise<string>;
